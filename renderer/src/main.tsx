/** Renderer entry: mounts the app. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, startUpOnce } from './components/App';
import { pageWithoutToken } from './api';
import './styles.css';

// The status read first, before the first render: it is what the first paint waits for. A tab
// without a token asks nothing (every call would be refused): App shows the token screen.
if (!pageWithoutToken) void startUpOnce();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
