import { createRoot } from 'react-dom/client';
import { App } from './App';
import './console.css';

createRoot(document.getElementById('console')!).render(<App />);
