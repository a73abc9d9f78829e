import type { CorbadoGlobal } from '../../src/Corbado';

declare global {
  const Corbado: CorbadoGlobal;
}
