import type { FastifyReply } from 'fastify';
import { pagingHeaders, type Page, type PageRequest } from '@latchkey/contracts';

/** The total and the page the body holds, beside a list whose body stays a plain array. */
export function setPagingHeaders(
  reply: FastifyReply,
  { page, pageSize }: PageRequest,
  { totalCount, isTotalCapped = false }: Omit<Page<unknown>, 'rows'>,
): void {
  reply.header(pagingHeaders.totalCount, String(totalCount));
  reply.header(pagingHeaders.page, String(page));
  reply.header(pagingHeaders.pageSize, String(pageSize));
  if (isTotalCapped) reply.header(pagingHeaders.totalCountCapped, 'true');
}
