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

/** `current_password` (optional): when given, checked like the login's (400 wrong, counted). */
export const RevealBody = Type.Object({ current_password: Type.Optional(Type.String({ maxLength: 1024 })) });

export type ChatEntry = Static<typeof ChatEntry>;
export type ChatList = Static<typeof ChatList>;
