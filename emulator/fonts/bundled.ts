/**
 * The DejaVu fonts as bytes for bundled builds (workerd, Workers, a browser): esbuild and wrangler inline a
 * `type: 'bytes'` import as a Uint8Array. Node cannot import a .ttf, so on Node `pdf-fonts.ts` reads the same files
 * from node_modules instead and never loads this module.
 */
import sans from 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf' with { type: 'bytes' };
import sansBold from 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf' with { type: 'bytes' };
import serifBold from 'dejavu-fonts-ttf/ttf/DejaVuSerif-Bold.ttf' with { type: 'bytes' };

/** Regular, bold and serif-bold faces, in the order `pdf-fonts.ts` names them. */
export const fonts = { sans, sansBold, serifBold };
