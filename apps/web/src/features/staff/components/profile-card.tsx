import type { ReactNode } from 'react';
import { Button, Group, Paper, type PaperProps, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PhotoUploadButton } from './photo-upload-button';
import { UserAvatar } from './user-avatar';

/** A staff member's own profile: photo and its upload, Edit while not editing, the Profile heading, then `children`. */
export function ProfileCard({
  userId,
  name,
  editing,
  onEdit,
  maw,
  children,
}: {
  userId: number;
  name: string;
  editing: boolean;
  onEdit: () => void;
  maw?: PaperProps['maw'];
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="lg" radius="md" maw={maw}>
      <Group justify="space-between" mb="md" align="flex-start">
        <Group>
          <UserAvatar userId={userId} name={name} size={72} />
          <PhotoUploadButton userId={userId} />
        </Group>
        {!editing && (
          <Button variant="light" onClick={onEdit}>
            {t('customer_data.edit')}
          </Button>
        )}
      </Group>
      <Title order={2} size="h3" mb="sm">
        {t('customer_data.profile')}
      </Title>
      {children}
    </Paper>
  );
}

/** Cancel and Save (the submit) at the end of a profile form. */
export function ProfileFormButtons({ saving, onCancel, mt }: { saving: boolean; onCancel: () => void; mt?: string }) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end" mt={mt}>
      <Button variant="default" onClick={onCancel}>
        {t('common.cancel')}
      </Button>
      <Button type="submit" loading={saving}>
        {t('common.save')}
      </Button>
    </Group>
  );
}
