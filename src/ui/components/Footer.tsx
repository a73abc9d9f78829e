import { useT } from '../context';
import { Icon } from './Icon';

/** "Secured by Corbado", linking to the provider's site. */
export function Footer() {
  const t = useT();
  return (
    <footer className="cb-footer">
      <a className="cb-badge" href="https://www.corbado.com" target="_blank" rel="noopener noreferrer">
        <Icon name="shield" />
        <span>
          {t('common.securedBy')} <strong>Corbado</strong>
        </span>
      </a>
    </footer>
  );
}
