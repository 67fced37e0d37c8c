/** How a room hands back to the PIN screen: the person left, or the room refused or closed (an error code). */
export type RoomExit = { kind: 'left' } | { kind: 'failed'; error: string };
