// Short notices after an action ("Moved task_7 to In review", or why something was refused);
// each disappears by itself. Screen readers hear them through the live announcer, so news
// that a view also reports (a task move) is spoken once.
import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { useAnnounce } from './LiveAnnouncer';

type Tone = 'info' | 'error';
interface Toast {
  id: number;
  text: string;
  tone: Tone;
}

const ToastContext = createContext<(text: string, tone?: Tone) => void>(() => {});

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const announce = useAnnounce();
  const show = useCallback((text: string, tone: Tone = 'info') => {
    announce(text);
    const id = Date.now() + Math.random();
    setToasts((list) => [...list.slice(-2), { id, text, tone }]);
    setTimeout(() => setToasts((list) => list.filter((toast) => toast.id !== id)), tone === 'error' ? 6000 : 3500);
  }, [announce]);
  return (
    <ToastContext.Provider value={show}>
      {children}
      <div className="toasts" aria-hidden="true">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast-${toast.tone}`}>
            {toast.text}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): (text: string, tone?: Tone) => void {
  return useContext(ToastContext);
}
