/**
 * What the shops module offers the other modules, which import it from this file only (the
 * layer rules refuse their imports of its other files).
 */
export { registerShopRoutes, shopRoutes } from './routes.ts';
export { registerShopWebhookRoutes, shopWebhookRoutes } from './shop-webhook-routes.ts';
export { listShopOrders } from './list-shop-orders.ts';
export { toShopOrderResponse } from './to-shop-order-response.ts';
