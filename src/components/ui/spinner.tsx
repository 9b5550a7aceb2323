import { cn } from './cn';

export function Spinner({ className, label }: { className?: string; label: string }) {
  return (
    <span role="status" className={cn('inline-flex items-center gap-2 text-slate-600', className)}>
      <span
        aria-hidden="true"
        className="size-6 animate-spin rounded-full border-[3px] border-slate-300 border-t-brand"
      />
      <span className="sr-only">{label}</span>
    </span>
  );
}
