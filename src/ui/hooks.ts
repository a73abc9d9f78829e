import { useStore } from '@nanostores/react';
import type { FlowBlock } from '../core/process/block';
import { useApp } from './context';

/** The current block (a screen is only drawn while its block exists) and whether an action runs. */
export function useBlock<Data = Record<string, unknown>>(): { block: FlowBlock; data: Data; busy: boolean } {
  const { flow } = useApp();
  const block = useStore(flow.$block);
  const busy = useStore(flow.$busy);
  if (!block) throw new Error('A screen was drawn without a block');
  return { block, data: block.data as Data, busy };
}
