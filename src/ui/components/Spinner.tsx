import { useEffect, useState } from 'react';
import { useAnnounce, useT } from '../context';

export const SPINNER_DELAY_MS = 100;

/**
 * A loading indicator that appears only once loading has lasted 100 ms, so fast loads never flicker.
 * It is said through the view's live region, which exists before it: a status inserted together with
 * its text is not announced.
 */
export function Spinner({ delay = SPINNER_DELAY_MS }: { delay?: number }) {
  const t = useT();
  const announce = useAnnounce();
  const [visible, setVisible] = useState(delay <= 0);
  useEffect(() => {
    if (delay <= 0) return;
    const timer = setTimeout(() => setVisible(true), delay);
    return () => clearTimeout(timer);
  }, [delay]);
  useEffect(() => {
    if (visible) announce(t('common.loading'));
  }, [visible, announce, t]);
  if (!visible) return null;
  return (
    <div className="cb-spinner">
      <span className="cb-spinner-ring" aria-hidden="true" />
    </div>
  );
}
