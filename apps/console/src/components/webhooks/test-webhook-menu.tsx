import { webhookEventLabels, webhookEventNames } from '@latchkey/contracts';
import { ChevronDown, Send } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { useTestWebhook } from '@/hooks/use-webhooks.ts';

/**
 * The Test Webhook menu, one entry per event. The server sends a sample of that event to the
 * webhooks subscribed to it (or to all, when none is).
 */
export function TestWebhookMenu() {
  const testWebhook = useTestWebhook();

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" disabled={testWebhook.isPending}>
          {testWebhook.isPending ? <Spinner /> : <Send aria-hidden="true" />}
          Test Webhook
          <ChevronDown aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>Send a sample event</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {webhookEventNames.map((event) => (
          <DropdownMenuItem key={event} onSelect={() => testWebhook.mutate(event)}>
            {webhookEventLabels[event]}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
