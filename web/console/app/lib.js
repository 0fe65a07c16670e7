// The toolkit in one place: Preact's render and hooks, and htm's tagged templates bound to h.
import { h, render } from './vendor/preact.js';
import htm from './vendor/htm.js';

export { useCallback, useEffect, useMemo, useRef, useState } from './vendor/hooks.js';
export { render };
export const html = htm.bind(h);
