import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'server/dist/', 'node_modules/', 'test-results/', 'playwright-report/', 'bench/tmp/', '.data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['demo/**/*.js', 'scripts/**/*.mjs', 'server/*.mjs', '*.js'],
    languageOptions: { globals: { window: 'readonly', document: 'readonly', console: 'readonly', Corbado: 'readonly', URLSearchParams: 'readonly', URL: 'readonly', process: 'readonly' } },
  },
  {
    // the legacy host pages' scripts imitate what 2008-era libraries do, in their idioms (var self = this,
    // == null, comma expressions)
    files: ['demo/legacy/*.js'],
    languageOptions: { globals: { setTimeout: 'readonly' } },
    rules: { '@typescript-eslint/no-this-alias': 'off', '@typescript-eslint/no-unused-expressions': 'off', eqeqeq: 'off' },
  },
);
