import { defineConfig } from 'vitest/config';

// Three projects: core in node, UI in happy-dom, the local Frontend API over real HTTP.
export default defineConfig({
  define: { __CORBADO_VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    css: true,
    // four files at a time on two cores: the server's tests wait on sockets, timers and the database
    // more than they compute (303 s with two, 133 s with four on the CI machine's two cores)
    maxWorkers: 4,
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
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'src/bundleSize.test.ts', 'src/publishing.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
