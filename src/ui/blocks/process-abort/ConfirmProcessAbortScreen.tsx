import { useEffect, useRef } from 'react';
import { Button } from '../../components/Button';
import { Header } from '../../components/Header';
import { mayTakeFocus, useApp, useT } from '../../context';
import { useBlock } from '../../hooks';

/**
 * Back navigation during sign-up: complete the sign-up first, or start over and lose what was entered.
 * Escape is "back" to where the visitor was, the answer that loses nothing.
 */
export function ConfirmProcessAbortScreen() {
  const { flow } = useApp();
  const t = useT();
  const { busy } = useBlock();
  const screen = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // on the window: the focus may have fallen to the body with the browser's back button
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && mayTakeFocus(screen.current!)) flow.cancelAbort();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [flow]);
  return (
    <div className="cb-form" ref={screen}>
      <Header title={t('abort.title')} subtitle={t('abort.header')} />
      <p className="cb-subtitle">{t('abort.subheader')}</p>
      <Button onClick={() => flow.cancelAbort()}>{t('abort.confirm')}</Button>
      <Button variant="secondary" busy={busy} onClick={() => void flow.abort()}>
        {t('abort.back')}
      </Button>
    </div>
  );
}
