import type { Fallback } from '../../../core/process/flow';
import { Button } from '../../components/Button';
import { useApp, useT } from '../../context';

/** One button per verification the block's alternatives offer instead of a passkey. */
export function FallbackButtons({ disabled }: { disabled?: boolean }) {
  const { flow } = useApp();
  const t = useT();
  return (
    <>
      {flow.fallbacks().map((fallback: Fallback) => (
        <Button key={fallback.method} variant="secondary" disabled={disabled} onClick={() => void flow.useFallback(fallback)}>
          {t(`fallback.${fallback.method}`)}
        </Button>
      ))}
    </>
  );
}
