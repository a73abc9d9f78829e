// Every text the code asks for exists in en.json (and so, by addOnLanguages.test.ts, in every language):
// a key missing there is shown in another language or as the key itself. Read from the sources: the
// widget's literal keys ('user.remove', 'errors.signup_field_invalid', …) and the codes the server sends
// as request errors, which the widget looks up as errors.<code> before it shows the server's own message
// (in the project's language, not the visitor's).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REQUEST_ERROR_CODES } from '../../../server/flow/requestErrors.ts';
import en from './en.json';

type Tree = { [key: string]: string | Tree };

const root = join(import.meta.dirname, '../../..');
const sources = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });

const node = (key: string): string | Tree | undefined =>
  key.split('.').reduce<string | Tree | undefined>((at, part) => (at && typeof at === 'object' ? at[part] : undefined), en as Tree);

/** The literal keys in the widget's sources: quoted strings that start with a section of en.json. */
export function literalKeys(source: string, sections: string[]): string[] {
  return [...source.matchAll(/['"`]([a-zA-Z][\w-]*(?:\.[\w-]+)+)['"`]/g)].map((m) => m[1]!).filter((key) => sections.includes(key.split('.')[0]!));
}

/** The request-error codes a server source sends by name: ctx.error('…'), socialError('…'). */
export function sentCodes(source: string): string[] {
  return [...source.matchAll(/\b(?:error|socialError)\(\s*'([\w-]+)'/g)].map((m) => m[1]!);
}

describe('the keys in use', () => {
  it('every literal key of the widget has a text (a plural group has its forms)', () => {
    // the console (src/console) is another app with a dictionary of its own (src/console/i18n.ts)
    const missing = sources('src').filter((file) => !file.startsWith('src/console/')).flatMap((file) =>
      literalKeys(readFileSync(join(root, file), 'utf8'), Object.keys(en)).filter((key) => {
        const found = node(key);
        return !(typeof found === 'string' || (found && typeof found.other === 'string'));
      }).map((key) => `${file}: ${key}`),
    );
    expect(missing).toEqual([]);
  });

  it('every code the server sends is in its catalogue, and the widget has a text for it in every language', () => {
    const uncatalogued = sources('server').flatMap((file) =>
      sentCodes(readFileSync(join(root, file), 'utf8')).filter((code) => !REQUEST_ERROR_CODES.includes(code)).map((code) => `${file}: ${code}`),
    );
    expect(uncatalogued).toEqual([]);
    // a code with a text per identifier type (errors.identifier_already_in_use.email) counts too
    expect(REQUEST_ERROR_CODES.filter((code) => node(`errors.${code}`) === undefined)).toEqual([]);
  });

  it('the readers find what they look for', () => {
    expect(literalKeys(`t('user.remove'); t(verified ? "user.pending" : 'nope.x'); 'a.b'; \`errors.x\``, ['user', 'errors'])).toEqual([
      'user.remove',
      'user.pending',
      'errors.x',
    ]);
    expect(sentCodes(`ctx.error('unexpected_step'); ctx.socialError( 'social_login_failed'); this.error('x', type)`)).toEqual([
      'unexpected_step',
      'social_login_failed',
      'x',
    ]);
  });
});
