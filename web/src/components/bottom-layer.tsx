import { createContext, useContext, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import styles from './bottom-layer.module.css';

/** Where toasts go: the toast slot of the shell's bottom layer, or null outside the shell. */
const ToastSlot = createContext<HTMLElement | null>(null);

/**
 * The one floating layer of the app: toasts stacked above the sync badge, the whole column
 * resting on the bottom bar. Stacked in one flex column they can never cover each other, and
 * the layer's measured height is published as --bottom-layer-height on the root element, so
 * the page keeps that much room at its end, the sticky Save rides above it, and a focused field
 * is scrolled clear of it (scroll-padding, global.css). Nothing floats anywhere else.
 */
export function BottomLayer({ badge, children }: { badge: ReactNode; children: ReactNode }) {
  const layer = useRef<HTMLDivElement>(null);
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  useLayoutEffect(() => {
    const element = layer.current;
    if (!element) return;
    const root = document.documentElement;
    const publish = () => root.style.setProperty('--bottom-layer-height', `${element.offsetHeight}px`);
    // The observer reports the first height once the page is laid out, before it is painted:
    // measuring here instead forced a layout of the half-built screen at every start (issue 30).
    // Where there is no ResizeObserver (jsdom, very old browsers) the first height stands.
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(publish);
    if (observer) observer.observe(element);
    else publish();
    return () => {
      observer?.disconnect();
      root.style.removeProperty('--bottom-layer-height');
    };
  }, []);
  return (
    <ToastSlot.Provider value={slot}>
      {children}
      <div ref={layer} className={styles.layer} data-bottom-layer="">
        <div ref={setSlot} className={styles.toasts} />
        {badge}
      </div>
    </ToastSlot.Provider>
  );
}

/** Renders a toast in the bottom layer's slot; in place where there is no layer (a screen under test alone). */
export function InBottomLayer({ children }: { children: ReactNode }) {
  const slot = useContext(ToastSlot);
  return slot ? createPortal(children, slot) : children;
}
