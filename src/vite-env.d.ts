/// <reference types="vite/client" />
declare const __CORBADO_VERSION__: string;
