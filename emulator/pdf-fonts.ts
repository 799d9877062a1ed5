/**
 * Fonts for the emulator's PDFs. The standard PDF fonts encode WinAnsi only (a Greek or Cyrillic name would come
 * out as `?`), so the PDFs embed DejaVu from the `dejavu-fonts-ttf` package, subset to the glyphs a page uses.
 * DejaVu covers Latin (with Vietnamese), Greek, Cyrillic, Armenian, Georgian, Hebrew, IPA and many symbols; it has no
 * CJK, no Indic scripts (Devanagari, Tamil, ...), no Thai, and only basic Arabic without shaping, so names in those
 * scripts show missing-glyph boxes (the document information still carries them correctly).
 */

/** The two Node built-ins used, typed by hand: this file is bundled for workerd too and imports none. */
interface NodeFs {
  readFileSync(path: string): Uint8Array;
}
interface NodeModule {
  createRequire(url: string): { resolve(specifier: string): string };
}

/** The three faces the PDFs use. */
export interface PdfFontBytes {
  sans: Uint8Array;
  sansBold: Uint8Array;
  serifBold: Uint8Array;
}

const files: Record<keyof PdfFontBytes, string> = {
  sans: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  sansBold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
  serifBold: 'dejavu-fonts-ttf/ttf/DejaVuSerif-Bold.ttf',
};

// The resolved bytes, never a pending promise: inside a Worker a promise from one request must not be awaited by
// another one.
let cached: PdfFontBytes | null | undefined;

type BuiltinLoader = { getBuiltinModule?: (id: string) => unknown } | undefined;

/** Node, Deno and Bun: read the package's files (no static `node:` import, so bundles for workerd stay clean). */
function readFromPackage(): PdfFontBytes | undefined {
  const proc = (globalThis as { process?: BuiltinLoader }).process;
  const fs = proc?.getBuiltinModule?.('node:fs') as NodeFs | undefined;
  const mod = proc?.getBuiltinModule?.('node:module') as NodeModule | undefined;
  if (!fs || !mod || typeof import.meta.url !== 'string') return undefined;
  try {
    const require = mod.createRequire(import.meta.url);
    const read = (spec: string) => new Uint8Array(fs.readFileSync(require.resolve(spec)));
    return { sans: read(files.sans), sansBold: read(files.sansBold), serifBold: read(files.serifBold) };
  } catch {
    // workerd's nodejs_compat has these modules but no node_modules on disk: use the bundled bytes.
    return undefined;
  }
}

/** Bundled builds carry the bytes themselves (esbuild's `type: 'bytes'` imports). */
async function readFromBundle(): Promise<PdfFontBytes | undefined> {
  try {
    const { fonts } = await import('./fonts/bundled.ts');
    return fonts.sans instanceof Uint8Array ? fonts : undefined;
  } catch {
    return undefined;
  }
}

/**
 * @returns the DejaVu faces, or null where neither the package's files nor bundled bytes can be had (then the PDFs
 *   fall back to the standard fonts and replace characters outside WinAnsi with `?`).
 */
export async function pdfFontBytes(): Promise<PdfFontBytes | null> {
  if (cached !== undefined) return cached;
  const found = readFromPackage() ?? (await readFromBundle()) ?? null;
  cached = found;
  return found;
}
