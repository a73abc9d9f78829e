import { useEffect, useState } from 'react';
import { useT } from '../context';

export const SPINNER_DELAY_MS = 100;

/** A loading indicator that appears only once loading has lasted 100 ms, so fast loads never flicker. */
export function Spinner({ delay = SPINNER_DELAY_MS }: { delay?: number }) {
  const t = useT();
  const [visible, setVisible] = useState(delay <= 0);
  useEffect(() => {
    if (delay <= 0) return;
    const timer = setTimeout(() => setVisible(true), delay);
    return () => clearTimeout(timer);
  }, [delay]);
  if (!visible) return null;
  return (
    <div className="cb-spinner" role="status">
      <span className="cb-spinner-ring" aria-hidden="true" />
      <span className="cb-sr">{t('common.loading')}</span>
    </div>
  );
}
