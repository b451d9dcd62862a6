import type { FormEvent } from 'react';

export function submitHandler(fn: () => void) {
  return (e: FormEvent) => {
    e.preventDefault();
    fn();
  };
}
