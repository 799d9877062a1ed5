/**
 * zod 4 for the workspace's other parts (the relay, the emulator's documents). Imported through here because the
 * repository root's node_modules holds n8n's zod 3, which a bare `zod` import from edge/ or emulator/ would find.
 */
export { z } from 'zod';
