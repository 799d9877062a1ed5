/** Writes the relay's OpenAPI document to the path given (or stdout), for the linters in scripts/openapi-check.sh. */
import { writeFileSync } from 'node:fs';
import { relayOpenApiDocument } from '../edge/openapi/document.ts';

const text = `${JSON.stringify(relayOpenApiDocument(), null, 2)}\n`;
const out = process.argv[2];
if (out) writeFileSync(out, text);
else process.stdout.write(text);
