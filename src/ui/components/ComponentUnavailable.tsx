import { useApp, useT } from '../context';
import { Button } from './Button';
import { Header } from './Header';
import { Icon } from './Icon';

/** The flow could not start: say so, name the support address when there is one, offer a reload. */
export function ComponentUnavailable({ onRetry }: { onRetry: () => void }) {
  const { options } = useApp();
  const t = useT();
  const email = options.customerSupportEmail;
  return (
    <div className="cb-form cb-center" role="alert">
      <Icon name="warning" className="cb-hero-icon cb-warn" />
      <Header
        title={t('componentUnavailable.header')}
        subtitle={email ? t('componentUnavailable.bodyWithSupport', { email }) : t('componentUnavailable.body')}
      />
      <Button onClick={onRetry}>{t('componentUnavailable.reload')}</Button>
    </div>
  );
}
