// The web's copy of the record kinds, generated from the contract the Rust domain writes
// (src/sync/contract.json, `delivery-tracker contract`): each kind's content type and zod pull
// schema, its mutations, the records it points at, the bounds its rules hold it to, and the
// records every account starts with; the bounds of what is not a kind (the profile, the contact
// form, the years a day may be in) and the characters free text may not hold. Pure (contract in, TypeScript out), so a test can check
// that the committed file is what the contract gives (src/sync/contract.test.ts).

interface JsonSchema {
  type?: string | string[];
  format?: string;
  enum?: string[];
  $ref?: string;
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  default?: unknown;
  description?: string;
}

interface ContractKind {
  name: string;
  put: string;
  delete: string;
  data: string;
  references: { field: string; kind: string }[];
  bounds: Record<string, number>;
  words: { one: string; many: string; record: string };
}

export interface Contract {
  kinds: ContractKind[];
  starterRecords: { kind: string; id: string; data: Record<string, unknown> }[];
  /** The bounds of what is not a record kind, by what they are for. */
  bounds: Record<string, Record<string, number>>;
  /** What free text may not hold: inclusive code point ranges, and what multi-line text may hold of them. */
  textRule: { forbidden: [number, number][]; multiLineAllowed: number[] };
  openapi: { components: { schemas: Record<string, JsonSchema> } };
}

/** The server stamps these on every pulled record; the device keeps them beside the content. */
const STAMPS = new Set(['createdAt', 'updatedAt']);

function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** A schema's types, without null, and whether null is one of them. */
function split(schema: JsonSchema): { inner: JsonSchema; nullable: boolean } {
  if (schema.oneOf) {
    const others = schema.oneOf.filter((s) => s.type !== 'null');
    return { inner: others[0]!, nullable: others.length < schema.oneOf.length };
  }
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t) => t !== 'null');
    return { inner: { ...schema, type: types[0] }, nullable: types.length < schema.type.length };
  }
  return { inner: schema, nullable: false };
}

class Generator {
  /** Component schemas the kinds use (enums and nested objects), emitted once each. */
  private readonly named = new Map<string, string>();

  constructor(private readonly schemas: Record<string, JsonSchema>) {}

  private resolve(name: string): JsonSchema {
    const schema = this.schemas[name];
    if (!schema) throw new Error(`the contract has no schema ${name}`);
    return schema;
  }

  /** A named component: its TypeScript name, registering it (and its zod twin) on first use. */
  private component(name: string): string {
    if (!this.named.has(name)) {
      // Declared after the components it uses, so each const exists before it is read.
      const declaration = this.declare(name, this.resolve(name));
      this.named.set(name, declaration);
    }
    return name;
  }

  private declare(name: string, schema: JsonSchema): string {
    const doc = schema.description ? `/** ${schema.description.replace(/\n/g, ' ')} */\n` : '';
    if (schema.enum) {
      return `${doc}export type ${name} = ${schema.enum.map((v) => `'${v}'`).join(' | ')};\nexport const ${zodName(name)} = onFirstUse(() => z.enum([${schema.enum.map((v) => `'${v}'`).join(', ')}]));\n`;
    }
    if (schema.properties) {
      const { type, zod } = this.object(schema, () => true);
      return `${doc}export interface ${name} ${type}\nexport const ${zodName(name)} = onFirstUse(() => ${zod});\n`;
    }
    const { type, zod } = this.field(schema);
    return `${doc}export type ${name} = ${type};\nexport const ${zodName(name)} = onFirstUse(() => ${zod});\n`;
  }

  /** An object's TypeScript body and zod schema, with the fields `keep` accepts. */
  object(schema: JsonSchema, keep: (field: string) => boolean): { type: string; zod: string } {
    const required = new Set(schema.required ?? []);
    const types: string[] = [];
    const zods: string[] = [];
    for (const [field, property] of Object.entries(schema.properties ?? {})) {
      if (!keep(field)) continue;
      const { inner, nullable } = split(property);
      const { type, zod } = this.field(inner);
      const doc = property.description ?? inner.description;
      const comment = doc ? `  /** ${doc.replace(/\n/g, ' ')} */\n` : '';
      if (property.default !== undefined) {
        // Absent from an older server or file: its default.
        types.push(`${comment}  ${field}: ${type}${nullable ? ' | null' : ''};`);
        zods.push(`  ${field}: ${zod}${nullable ? '.nullable()' : ''}.default(${JSON.stringify(property.default)}),`);
      } else if (required.has(field) || nullable) {
        types.push(`${comment}  ${field}: ${type}${nullable ? ' | null' : ''};`);
        zods.push(`  ${field}: ${zod}${nullable ? '.nullable()' : ''},`);
      } else {
        types.push(`${comment}  ${field}?: ${type};`);
        zods.push(`  ${field}: ${zod}.optional(),`);
      }
    }
    return { type: `{\n${types.join('\n')}\n}`, zod: `z.object({\n${zods.join('\n')}\n})` };
  }

  field(schema: JsonSchema): { type: string; zod: string } {
    if (schema.$ref) {
      const name = this.component(refName(schema.$ref));
      return { type: name, zod: `${zodName(name)}()` };
    }
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    switch (type) {
      case 'string':
        return { type: 'string', zod: 'z.string()' };
      case 'integer':
        return { type: 'number', zod: 'z.number().int()' };
      case 'number':
        return { type: 'number', zod: 'z.number()' };
      case 'boolean':
        return { type: 'boolean', zod: 'z.boolean()' };
      case 'array': {
        const item = this.field(schema.items ?? {});
        return { type: `${item.type}[]`, zod: `z.array(${item.zod})` };
      }
      default:
        throw new Error(`no TypeScript for the schema ${JSON.stringify(schema)}`);
    }
  }

  components(): string {
    return [...this.named.values()].join('\n');
  }
}

function zodName(name: string): string {
  return `${name[0]!.toLowerCase()}${name.slice(1)}Schema`;
}

/** `{ maxStops: 1000, maxItems: 2000 }`, as the generated file writes it. */
function boundsText(bounds: Record<string, number>): string {
  return `{ ${Object.entries(bounds).map(([name, value]) => `${name}: ${value}`).join(', ')} }`;
}

/**
 * The content fields that hold a day (`format: date` in the schema): the fields every record
 * has first, in the order the kind declares them, then the ones that may be null.
 */
function dayFields(schema: JsonSchema): string[] {
  const days = Object.entries(schema.properties ?? {})
    .filter(([, property]) => property.format === 'date')
    .map(([field]) => field);
  const required = schema.required ?? [];
  return [...required.filter((field) => days.includes(field)), ...days.filter((field) => !required.includes(field))];
}

/** `entry` → `Entry`, `rateCard` → `RateCard`. */
function typeName(kind: string): string {
  return `${kind[0]!.toUpperCase()}${kind.slice(1)}`;
}

/** The TypeScript the contract gives: src/sync/contract.generated.ts. */
export function generate(contract: Contract): string {
  const generator = new Generator(contract.openapi.components.schemas);
  const contents: string[] = [];
  for (const kind of contract.kinds) {
    const schema = contract.openapi.components.schemas[kind.data];
    if (!schema) throw new Error(`the contract has no schema ${kind.data}`);
    const { type, zod } = generator.object(schema, (field) => !STAMPS.has(field));
    const doc = schema.description ? `/** ${schema.description.replace(/\n/g, ' ')} */\n` : '';
    contents.push(`${doc}export interface Generated${typeName(kind.name)}Content ${type}\n`);
    contents.push(`const ${kind.name}Content = onFirstUse(() => ${zod});\n`);
  }
  const names = contract.kinds.map((k) => `'${k.name}'`).join(', ');
  const table = (value: (kind: ContractKind) => string) => `{\n${contract.kinds.map((k) => `  ${k.name}: ${value(k)},`).join('\n')}\n}`;
  return `// Generated by scripts/generate-contract.ts from contract.json (the Rust domain:
// \`delivery-tracker contract\`). Do not edit: run \`npm run contract\` after the contract changes.
// Each schema is made the first time it is read (onFirstUse), not as this file loads: every page
// loads this file for its constants, and on a slow phone making every kind's schema cost tens of
// milliseconds of each start, before any was needed (issue 30). A named schema is a function.
import { onFirstUse, z } from '../lib/zod';

/** Every synced record kind, in the server's registry order. */
export const KIND_NAMES = [${names}] as const;
export type GeneratedKind = (typeof KIND_NAMES)[number];

${generator.components()}
${contents.join('\n')}
/** The content each kind's pull carries (its data without the timestamps). */
export interface GeneratedContents ${table((k) => `Generated${typeName(k.name)}Content`).replace(/,\n/g, ';\n')}

/** The zod schema of each kind's pulled content, made when first read. */
export const CONTENT_SCHEMAS = {
${contract.kinds.map((k) => `  get ${k.name}() {\n    return ${k.name}Content();\n  },`).join('\n')}
};

/**
 * How the app names each kind's records, in the driver's words (the server's RecordKind::WORDS):
 * \`one\` and \`many\` when counted or pointed at, \`record\` for one record named by itself.
 */
export const WORDS = ${table((k) => `{ one: ${JSON.stringify(k.words.one)}, many: ${JSON.stringify(k.words.many)}, record: ${JSON.stringify(k.words.record)} }`)} as const;

/** The content fields that hold a day (YYYY-MM-DD), by kind: those the schema marks \`format: date\`. */
export const DAY_FIELDS: { readonly [K in GeneratedKind]: readonly string[] } = ${table(
    (k) => `[${dayFields(contract.openapi.components.schemas[k.data] ?? {}).map((field) => `'${field}'`).join(', ')}]`,
  )};

/** Each kind's two mutations. */
export const MUTATIONS = ${table((k) => `{ put: '${k.put}', remove: '${k.delete}' }`)} as const;

/** The content fields that name another record, by kind (the server's RecordKind::REFERENCES). */
export const REFERENCES: { readonly [K in GeneratedKind]: readonly { readonly field: string; readonly kind: GeneratedKind }[] } = ${table(
    (k) => `[${k.references.map((r) => `{ field: '${r.field}', kind: '${r.kind}' }`).join(', ')}]`,
  )};

/**
 * The limits the server's rules hold each kind's fields to, then those of what is not a kind
 * (the profile, the contact form, the years a day may be in): the forms check the same.
 */
export const BOUNDS = {
${[...contract.kinds.map((k) => [k.name, k.bounds] as const), ...Object.entries(contract.bounds)].map(([name, bounds]) => `  ${name}: ${boundsText(bounds)},`).join('\n')}
} as const;

/** What free text may not hold (crates/domain/src/fields.rs FORBIDDEN_IN_TEXT): code point ranges, inclusive. */
export const TEXT_RULE = {
  forbidden: [${contract.textRule.forbidden.map(([low, high]) => `[${low}, ${high}]`).join(', ')}],
  /** Of those, what multi-line text (notes) may hold. */
  multiLineAllowed: [${contract.textRule.multiLineAllowed.join(', ')}],
} as const;

/** Where the starter records carry the account's own id. */
export const USER_ID_PLACEHOLDER = '{userId}';

/** The records every account starts with (crates/domain/src/defaults.rs), ids as USER_ID_PLACEHOLDER. */
export const STARTER_RECORDS = ${JSON.stringify(contract.starterRecords, null, 2)} as const;
`;
}
