import { Component, type ErrorInfo, type ReactNode } from 'react';
import { t } from '../../core/i18n/i18n';

interface State {
  failed: boolean;
}

/** The generic fallback: a render error anywhere in a view shows one calm sentence, not a blank box. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('[corbado]', error, info.componentStack);
  }

  override render(): ReactNode {
    if (this.state.failed) {
      return (
        <div className="cb-card" role="alert">
          <p className="cb-text">{t('errors.generic')}</p>
        </div>
      );
    }
    return this.props.children;
  }
}
