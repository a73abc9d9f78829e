// Corbado's Backend API contract as @corbado/node-sdk ships it (src/specs/backend_api_public_v2.yml with
// its common.yml), and a checker of answers against the schemas it names: the subset of OpenAPI 3.0 those
// files use (types, required, properties, items, enum, allOf, $ref into either file).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';

type Schema = {
  $ref?: string;
  type?: string;
  required?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  allOf?: Schema[];
  content?: Record<string, { schema: Schema }>;
};
type Spec = { paths: Record<string, Record<string, { responses: Record<string, Schema> }>>; components: Record<string, Record<string, Schema>> };

// the package's exports map has no entry for its specs: find them beside its package.json
const sdkRoot = join(dirname(createRequire(import.meta.url).resolve('@corbado/node-sdk')), '..');
const specsDir = join(sdkRoot, 'src', 'specs');
const files: Record<string, Spec> = {
  'backend_api_public_v2.yml': parse(readFileSync(join(specsDir, 'backend_api_public_v2.yml'), 'utf8')) as Spec,
  'common.yml': parse(readFileSync(join(specsDir, 'common.yml'), 'utf8')) as Spec,
};
const MAIN = 'backend_api_public_v2.yml';

/** Follows a $ref (`#/components/…` in `file`, or `common.yml#/components/…`) to its schema and file. */
function resolve(ref: string, file: string): { schema: Schema; file: string } {
  const [target, pointer] = ref.split('#') as [string, string];
  const inFile = target || file;
  let node: unknown = files[inFile];
  for (const part of pointer.split('/').filter(Boolean)) node = (node as Record<string, unknown>)[part];
  if (!node) throw new Error(`the contract has no ${ref}`);
  return { schema: node as Schema, file: inFile };
}

/** Every way `value` breaks `schema`, as `path: problem` lines (none: it conforms). */
export function violations(value: unknown, schema: Schema, path = '$', file = MAIN): string[] {
  if (schema.$ref) {
    const target = resolve(schema.$ref, file);
    return violations(value, target.schema, path, target.file);
  }
  const problems: string[] = [];
  for (const part of schema.allOf ?? []) problems.push(...violations(value, part, path, file));
  if (schema.enum && !schema.enum.includes(value)) problems.push(`${path}: ${JSON.stringify(value)} is not one of ${schema.enum.join(', ')}`);
  switch (schema.type) {
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return [...problems, `${path}: not an object`];
      const record = value as Record<string, unknown>;
      for (const name of schema.required ?? []) if (!(name in record)) problems.push(`${path}.${name}: missing`);
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        if (name in record) problems.push(...violations(record[name], property, `${path}.${name}`, file));
      }
      break;
    }
    case 'array':
      if (!Array.isArray(value)) return [...problems, `${path}: not an array`];
      value.forEach((item, i) => problems.push(...violations(item, schema.items!, `${path}[${i}]`, file)));
      break;
    case 'string':
      if (typeof value !== 'string') problems.push(`${path}: not a string`);
      break;
    case 'integer':
      if (!Number.isInteger(value)) problems.push(`${path}: not an integer`);
      break;
    case 'number':
      if (typeof value !== 'number') problems.push(`${path}: not a number`);
      break;
    case 'boolean':
      if (typeof value !== 'boolean') problems.push(`${path}: not a boolean`);
      break;
  }
  return problems;
}

/** The schema of an operation's answer: its 200 for a 2xx, else its `default` (the error response). */
export function responseSchema(method: string, template: string, status: number): Schema {
  const operation = files[MAIN].paths[template]?.[method.toLowerCase()];
  if (!operation) throw new Error(`the contract has no ${method} ${template}`);
  // the responses (`#/components/responses/…`) are in the main file, so their schemas' refs read from there
  let response = operation.responses[status < 300 ? '200' : 'default']!;
  if (response.$ref) response = resolve(response.$ref, MAIN).schema;
  return response.content!['application/json']!.schema;
}

/** A named schema of the contract (`user`, `longSession`, …). */
export function namedSchema(name: string): Schema {
  return { $ref: `#/components/schemas/${name}` };
}
