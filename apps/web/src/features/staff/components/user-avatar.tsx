import { Avatar } from '@mantine/core';
import { usePhotoUrl } from '../photo-version';

/** A user's photo (or the server's generated avatar); the name is its text alternative. */
export function UserAvatar({ userId, name, size = 40 }: { userId: number; name: string; size?: number }) {
  return <Avatar src={usePhotoUrl(userId)} alt={name} size={size} radius="xl" />;
}
