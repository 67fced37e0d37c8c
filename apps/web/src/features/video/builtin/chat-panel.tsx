import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Button, CloseButton, Group, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MAX_CHAT_TEXT_LENGTH } from '@vetcall/shared/schemas/video';
import { formatTime } from '../../../lib/format';
import { currentLocale } from '../../../lib/i18n';
import type { ChatMessage } from './call-session';
import styles from './builtin-room.module.css';

/**
 * Text messages between the two (docs/product-rules.md#api toolbar "chat"); nothing is stored, so the panel says so.
 */
export function ChatPanel({
  messages,
  canSend,
  onSend,
  onClose,
}: {
  messages: ChatMessage[];
  canSend: boolean;
  onSend: (text: string) => boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  const [notSent, setNotSent] = useState(false);
  const list = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const locale = currentLocale();

  useEffect(() => {
    input.current?.focus();
  }, []);
  useEffect(() => {
    list.current?.scrollTo?.({ top: list.current.scrollHeight });
  }, [messages.length]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!draft.trim()) return;
    if (onSend(draft)) {
      setDraft('');
      setNotSent(false);
    } else {
      setNotSent(true);
    }
  };

  return (
    <aside className={styles.chat} aria-labelledby="room-chat-title">
      <Group justify="space-between" px="sm" py="xs">
        <Text id="room-chat-title" fw={700}>
          {t('video.chat.title')}
        </Text>
        <CloseButton aria-label={t('video.chat.close')} onClick={onClose} c="gray.3" variant="transparent" />
      </Group>
      <div
        ref={list}
        className={styles.chatMessages}
        role="log"
        aria-live="polite"
        aria-label={t('video.chat.messages')}
        tabIndex={0}
      >
        {messages.length === 0 && (
          <Text size="sm" className={styles.status}>
            {t('video.chat.empty')}
          </Text>
        )}
        {messages.map((message) => (
          <div key={message.id} className={message.from === 'self' ? styles.ownBubble : styles.bubble}>
            <div className={styles.bubbleMeta}>
              {message.from === 'self' ? t('video.chat.from_you') : message.name} · {formatTime(message.sentAt, locale)}
            </div>
            {message.text}
          </div>
        ))}
      </div>
      <form onSubmit={submit}>
        <Group p="sm" gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            ref={input}
            style={{ flex: 1 }}
            label={t('video.chat.input_label')}
            styles={{ label: { color: '#f1f3f5' }, description: { color: '#ced4da' } }}
            value={draft}
            maxLength={MAX_CHAT_TEXT_LENGTH}
            autoComplete="off"
            onChange={(event) => setDraft(event.currentTarget.value)}
            error={notSent ? t('video.chat.not_sent') : undefined}
            description={canSend ? undefined : t('video.chat.unavailable')}
            disabled={!canSend}
          />
          <Button type="submit" disabled={!canSend || !draft.trim()}>
            {t('video.chat.send')}
          </Button>
        </Group>
      </form>
    </aside>
  );
}
