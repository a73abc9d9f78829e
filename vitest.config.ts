import { defineConfig } from 'vitest/config';
import { QuickOrSkippedFirst } from './scripts/vitestSequencer.ts';

// Six projects: core in node, UI and the console in happy-dom, the local Frontend API over real HTTP, the
// tools (the build's and the test runner's own code), the benchmark's parts.
export default defineConfig({
  define: { __CORBADO_VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    css: true,
    // four files at a time on two cores: while some files wait on sockets, timers and the database,
    // others compute (303 s with two, 133 s with four on the CI machine's two cores; the run keeps both
    // cores busy now)
    maxWorkers: 4,
    // files skipped on the last run start first (the PostgreSQL-only files after the SQLite run), and on a
    // fresh clone a file's size counts what it imports (scripts/vitestSequencer.ts)
    sequence: { sequencer: QuickOrSkippedFirst },
    projects: [
      {
        extends: true,
        test: { name: 'core', environment: 'node', include: ['src/core/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'ui', environment: 'happy-dom', include: ['src/ui/**/*.test.{ts,tsx}', 'src/Corbado.test.ts'] },
      },
      {
        extends: true,
        // the console (src/console/, its own Vite entry): its pure parts and pages with fetch answered in the test
        test: { name: 'console', environment: 'happy-dom', include: ['src/console/**/*.test.{ts,tsx}'] },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'src/bundleSize.test.ts', 'src/publishing.test.ts'],
          // mocks node:crypto to count the draws: it needs a module graph of its own (the tools project's)
          exclude: ['server/test/randomValues.test.ts'],
          testTimeout: 20_000,
          // the files of a worker share one module graph: each file starts its own servers, stores and
          // clients, mocks and stubs nothing (its spies are restored), and loading the server's modules
          // again for every file was a third of the suite's time (checked in shuffled file orders too:
          // --sequence.shuffle.files)
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'tools',
          environment: 'node',
          // isolated: slimPhoneMetadata.test.ts loads the phone module again with other metadata. Nothing
          // here opens a database, so `npm test` runs them in its first step, beside the native build
          include: ['scripts/**/*.test.ts', 'server/test/randomValues.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        // the benchmark's parts: they start the real server (the native SQLite module) and read the build
        test: { name: 'bench', environment: 'node', include: ['bench/**/*.test.ts'], testTimeout: 20_000 },
      },
    ],
  },
});
