import { Type, type Static } from 'typebox';

/** A chat the bot has seen: `title` is the chat title, else the first name, else the username, else empty. */
export const ChatEntry = Type.Object({
  id: Type.Union([Type.Integer(), Type.String()]),
  type: Type.String(),
  title: Type.String(),
  username: Type.Union([Type.String(), Type.Null()]),
});

export const ChatList = Type.Object({ chats: Type.Array(ChatEntry), count: Type.Integer() });
export const TestSent = Type.Object({ success: Type.Boolean() });
export const RevealedToken = Type.Object({ key: Type.String(), value: Type.String() });

export type ChatEntry = Static<typeof ChatEntry>;
export type ChatList = Static<typeof ChatList>;
