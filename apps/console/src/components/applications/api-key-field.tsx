import { Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';
import { CopyButton } from '@/components/ui/copy-button.tsx';
import { IconButton } from '@/components/ui/icon-button.tsx';
import { Input } from '@/components/ui/input.tsx';

/**
 * An application's API key, or another secret the owner pastes into their program, in a
 * read-only box, masked until the owner shows it (it is a secret, kept off a shared screen
 * unless asked for), with a Copy button beside it. The caller labels the box by `id`; with
 * `isVisible`, the caller also holds whether it is shown (to show it elsewhere too).
 */
export function ApiKeyField({
  id,
  secret,
  secretName = 'API key',
  copyToastMessage,
  isVisible,
  onVisibleChange,
}: {
  id: string;
  secret: string;
  /** What the buttons call it: "Show API key", "Copy API key". */
  secretName?: string;
  copyToastMessage?: string;
  isVisible?: boolean;
  onVisibleChange?: (isVisible: boolean) => void;
}) {
  const [isOwnVisible, setIsOwnVisible] = useState(false);
  const isKeyVisible = isVisible ?? isOwnVisible;

  return (
    <div className="flex items-center gap-1">
      <Input
        id={id}
        type={isKeyVisible ? 'text' : 'password'}
        value={secret}
        readOnly
        spellCheck={false}
        autoComplete="off"
        className="font-mono"
      />
      <IconButton
        label={isKeyVisible ? `Hide ${secretName}` : `Show ${secretName}`}
        aria-pressed={isKeyVisible}
        onClick={() => {
          setIsOwnVisible(!isKeyVisible);
          onVisibleChange?.(!isKeyVisible);
        }}
      >
        {isKeyVisible ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
      </IconButton>
      <CopyButton value={secret} label={`Copy ${secretName}`} toastMessage={copyToastMessage} />
    </div>
  );
}
