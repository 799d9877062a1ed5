/**
 * Writes the OpenAPI documents into the folder given, for the linters in scripts/openapi-check.sh:
 * relay-3.1.json, relay-3.0.json (edge/openapi/), service-3.1.json, service-3.0.json (the emulator's, sandbox).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { relayOpenApiDocument } from '../edge/openapi/document.ts';
import { serviceOpenApiDocument } from '../emulator/openapi.ts';

const dir = process.argv[2];
if (!dir) throw new Error('usage: node scripts/openapi-dump.ts <folder>');
for (const version of ['3.1', '3.0'] as const) {
  writeFileSync(join(dir, `relay-${version}.json`), `${JSON.stringify(relayOpenApiDocument(version), null, 2)}\n`);
  writeFileSync(join(dir, `service-${version}.json`), `${JSON.stringify(serviceOpenApiDocument('http://127.0.0.1:4010', 'sandbox', version), null, 2)}\n`);
}
