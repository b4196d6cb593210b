import { Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';
import { CopyButton } from '@/components/ui/copy-button.tsx';
import { IconButton } from '@/components/ui/icon-button.tsx';
import { Input } from '@/components/ui/input.tsx';

/**
 * An application's API key in a read-only box, masked until the owner shows it (it is a
 * secret, kept off a shared screen unless asked for), with a Copy button beside it. The
 * caller labels the box by `id`.
 */
export function ApiKeyField({
  id,
  apiKey,
  copyToastMessage,
}: {
  id: string;
  apiKey: string;
  copyToastMessage?: string;
}) {
  const [isKeyVisible, setIsKeyVisible] = useState(false);

  return (
    <div className="flex items-center gap-1">
      <Input
        id={id}
        type={isKeyVisible ? 'text' : 'password'}
        value={apiKey}
        readOnly
        spellCheck={false}
        autoComplete="off"
        className="font-mono"
      />
      <IconButton
        label={isKeyVisible ? 'Hide API key' : 'Show API key'}
        aria-pressed={isKeyVisible}
        onClick={() => setIsKeyVisible((visible) => !visible)}
      >
        {isKeyVisible ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
      </IconButton>
      <CopyButton value={apiKey} label="Copy API key" toastMessage={copyToastMessage} />
    </div>
  );
}
