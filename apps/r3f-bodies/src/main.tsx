import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { setConsoleFunction } from 'three';
import { App } from './App.tsx';

// React Three Fiber 9.8 (the newest) makes a THREE.Clock for every <Canvas>, which three.js deprecated in r183:
// each canvas logs "THREE.Clock: This module has been deprecated", a warning about r3f's code, not this app's
// (r3f's frame time is unused here: the runtime times frames). That one message is dropped; three.js's others go
// to the console as before.
const CLOCK_DEPRECATED = 'THREE.Clock: This module has been deprecated';
setConsoleFunction((type, message, ...params) => {
  if (type === 'warn' && typeof message === 'string' && message.startsWith(CLOCK_DEPRECATED)) return;
  (console[type as 'log' | 'warn' | 'error'] ?? console.log)(message, ...params);
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
