import { useStore } from '@nanostores/react';
import { Component, type ErrorInfo, type FunctionComponent, type ReactNode } from 'react';
import { t } from '../../core/i18n/i18n';
import { useApp } from '../context';

interface State {
  failed: boolean;
}

interface Props {
  children: ReactNode;
  /**
   * SPEC's globalError (the start-up's error, Flow.$error): while there is one, the sentence stands in for
   * the children, as web-js 3.5's account views (passkey list, user details) show it
   */
  globalError?: unknown;
}

/** The generic fallback: a render error anywhere in a view shows one calm sentence, not a blank box. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('[corbado]', error, info.componentStack);
  }

  override render(): ReactNode {
    if (this.state.failed || this.props.globalError) {
      return (
        <div className="cb-card" part="container" role="alert">
          <p className="cb-text">{t('errors.generic')}</p>
        </div>
      );
    }
    return this.props.children;
  }
}

/**
 * An account view (passkey list, user details) under the boundary: for a logged-in visitor, a global
 * error shows the boundary's sentence instead of the view, as in web-js 3.5 (SPEC.md section 8).
 */
export function accountView(View: FunctionComponent): FunctionComponent {
  return function AccountView() {
    const { flow, session } = useApp();
    const globalError = useStore(flow.$error);
    const user = useStore(session.$user);
    return (
      <ErrorBoundary globalError={user && globalError}>
        <View />
      </ErrorBoundary>
    );
  };
}
