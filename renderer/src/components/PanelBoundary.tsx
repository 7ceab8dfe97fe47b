/** Error boundary per panel: a crashing panel shows its error and a Reload, the rest of the window stays. */
import { Component, Fragment, type ErrorInfo, type ReactNode } from 'react';

/** Props: the panel's name (for the message) and the panel. */
export interface PanelBoundaryProps {
  name: string;
  children: ReactNode;
}

/** Catches render errors of one panel (React error boundaries are class components only). */
export class PanelBoundary extends Component<PanelBoundaryProps, { error: Error | null; attempt: number }> {
  override state = { error: null as Error | null, attempt: 0 };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // Kept in the console for bug reports; the panel itself shows the message.
    console.warn(`${this.props.name} panel crashed:`, error.message, info.componentStack ?? '');
  }

  override render() {
    if (!this.state.error) return <Fragment key={this.state.attempt}>{this.props.children}</Fragment>;
    return (
      <section className="panel" role="alert" data-testid="panel-crashed">
        <h2>{this.props.name}</h2>
        <p className="error-text">This panel stopped: {this.state.error.message}</p>
        <button type="button" onClick={() => this.setState((s) => ({ error: null, attempt: s.attempt + 1 }))} data-testid="panel-reload">
          Reload panel
        </button>
      </section>
    );
  }
}
