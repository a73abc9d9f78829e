import { Button } from '../../components/Button';
import { useApp, useT } from '../../context';
import { useBlock } from '../../hooks';

/** Back navigation during sign-up: complete the sign-up first, or start over and lose what was entered. */
export function ConfirmProcessAbortScreen() {
  const { flow } = useApp();
  const t = useT();
  const { busy } = useBlock();
  return (
    <div className="cb-form" role="alertdialog" aria-labelledby="cb-abort-title">
      <h1 className="cb-title" id="cb-abort-title">
        {t('abort.title')}
      </h1>
      <p className="cb-text">{t('abort.header')}</p>
      <p className="cb-subtitle">{t('abort.subheader')}</p>
      <Button onClick={() => flow.cancelAbort()} autoFocus>
        {t('abort.confirm')}
      </Button>
      <Button variant="secondary" busy={busy} onClick={() => void flow.abort()}>
        {t('abort.back')}
      </Button>
    </div>
  );
}
