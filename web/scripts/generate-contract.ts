// `npm run contract`: writes src/sync/contract.generated.ts from src/sync/contract.json (which
// `delivery-tracker contract` writes from the Rust domain). src/sync/contract.test.ts fails
// when the committed file is not what this gives.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generate, type Contract } from './contract-codegen';

const contractPath = fileURLToPath(new URL('../src/sync/contract.json', import.meta.url));
const outPath = fileURLToPath(new URL('../src/sync/contract.generated.ts', import.meta.url));
const contract = JSON.parse(readFileSync(contractPath, 'utf8')) as Contract;
writeFileSync(outPath, generate(contract));
console.log(`wrote ${outPath}`);
