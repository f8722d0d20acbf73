// Preload: exposes window.letagents built from the contract (src/shared/contract.ts).
import { contextBridge } from 'electron';

contextBridge.exposeInMainWorld('letagents', {});
