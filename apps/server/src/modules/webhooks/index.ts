/**
 * What the webhooks module offers the other modules, which import it from this file only (the
 * layer rules refuse their imports of its other files).
 */
export { createWebhook } from './create-webhook.ts';
export { deleteWebhook } from './delete-webhook.ts';
export { destinationPolicyFor } from './destination-guard.ts';
export { listWebhooks } from './list-webhooks.ts';
export { updateWebhook } from './update-webhook.ts';
export { webhookRoutes } from './routes.ts';
