import type { ComponentProps } from 'react';
import { cn } from './cn';

export function Card({ className, ...props }: ComponentProps<'section'>) {
  return (
    <section
      data-slot="card"
      className={cn('rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8', className)}
      {...props}
    />
  );
}
