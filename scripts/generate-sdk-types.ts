import { writeFileSync } from 'node:fs';
import { renderSdkTypes, SDK_TYPES_FILE, servedOpenApi } from './sdk-types.js';

writeFileSync(SDK_TYPES_FILE, await renderSdkTypes(await servedOpenApi()));
process.stdout.write('wrote packages/client/src/generated/openapi.ts\n');
