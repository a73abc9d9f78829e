import { Button } from '../../components/Button';
import { Header } from '../../components/Header';
import { Icon } from '../../components/Icon';
import { useApp, useT } from '../../context';
import { useBlock } from '../../hooks';

export type LinkSuccessVariant = 'original-tab' | 'new-tab' | 'other-tab';

/**
 * E-mail verified by link. The original tab continues here; the tab the link opened, and an original
 * tab whose process finished in another tab, say where to go on.
 */
export function EmailLinkSuccessScreen({ variant }: { variant: LinkSuccessVariant }) {
  const { flow } = useApp();
  const t = useT();
  const { block } = useBlock();
  return (
    <div className="cb-form cb-center">
      <Icon name="check" className="cb-hero-icon" />
      <Header title={t('emailLinkSuccess.header')} subtitle={t(`emailLinkSuccess.${variant}.${block.authType}`)} />
      {variant === 'original-tab' && <Button onClick={() => flow.continueAfterLink()}>{t('common.continue')}</Button>}
    </div>
  );
}
