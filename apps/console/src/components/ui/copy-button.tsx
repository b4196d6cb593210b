import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { ButtonProps } from '@/components/ui/button.tsx';
import { IconButton } from '@/components/ui/icon-button.tsx';
import { copyToClipboard } from '@/hooks/copy-to-clipboard.ts';

const CONFIRMATION_MS = 1500;

/** An icon button that copies `value`; its icon turns into a tick for a moment on success. */
export function CopyButton({
  value,
  label,
  toastMessage,
  ...props
}: Omit<ButtonProps, 'onClick' | 'children' | 'value' | 'size'> & {
  value: string;
  /** The accessible name and tooltip, e.g. "Copy API key". */
  label: string;
  toastMessage?: string;
}) {
  const [isCopied, setIsCopied] = useState(false);

  useEffect(() => {
    if (!isCopied) return;
    const timeout = setTimeout(() => setIsCopied(false), CONFIRMATION_MS);
    return () => clearTimeout(timeout);
  }, [isCopied]);

  return (
    <IconButton
      label={label}
      onClick={async () => {
        if (await copyToClipboard(value, toastMessage)) setIsCopied(true);
      }}
      {...props}
    >
      {isCopied ? (
        <Check className="text-success" aria-hidden="true" />
      ) : (
        <Copy aria-hidden="true" />
      )}
    </IconButton>
  );
}
