import { toast } from './use-toast.ts';

/** Copies confirm with the title 'Copied'. */
export async function copyToClipboard(
  text: string,
  description = 'Text copied to clipboard',
): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: 'Copied', description });
    return true;
  } catch {
    // Insecure origins and denied permissions have no clipboard; say so rather than pretend.
    toast({
      title: 'Error',
      description: 'Could not copy to the clipboard',
      variant: 'destructive',
    });
    return false;
  }
}
