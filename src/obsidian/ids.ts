/** A unique chat id: time plus randomness (host code; the core never makes ids from the clock itself). */
export function newChatId(): string {
  const time = Date.now().toString(36);
  const random = Math.floor(Math.random() * 36 ** 4)
    .toString(36)
    .padStart(4, '0');
  return `chat-${time}-${random}`;
}
