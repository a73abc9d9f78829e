// The README's "Testing your site" promises QA teams accessible names to find the widget's elements by.
// Each name it quotes must be one of the widget's English texts (placeholders filled in any way), or
// such a text, a colon and what it is about ("Edit: Name"), so that a renamed text cannot leave the
// README promising a name that no element has any more.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import en from './en.json' with { type: 'json' };

type Tree = { [key: string]: string | Tree };

function texts(tree: Tree): string[] {
  return Object.values(tree).flatMap((value) => (typeof value === 'string' ? [value] : texts(value)));
}

const patterns = texts(en as Tree).map(
  (text) => new RegExp(`^${text.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+')}$`),
);
const isText = (name: string) => patterns.some((pattern) => pattern.test(name));

function quotedNames(): string[] {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf('\n## Testing your site\n');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const rows = section.split('\n').filter((line) => line.startsWith('|'));
  return [...rows.join('\n').matchAll(/"([^"]+)"/g)].map((match) => match[1]!);
}

describe('the README\'s stable hooks for testing a site', () => {
  it('quote only names the widget gives its elements', () => {
    const names = quotedNames();
    expect(names.length).toBeGreaterThan(80);
    const unknown = names.filter((name) => !isText(name) && !(/^[^:]+: ./.test(name) && isText(name.slice(0, name.indexOf(':')))));
    expect(unknown).toEqual([]);
  });

  it('tell a renamed text from a real one', () => {
    expect(isText('Digit 3 of 6')).toBe(true);
    expect(isText('Delete Passkey, created Nov 25, 2026, 1:45 PM')).toBe(true);
    expect(isText('Create an account')).toBe(false);
  });
});
