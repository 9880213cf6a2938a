import { Type, type Static } from 'typebox';

/** Cached wallpapers as `/app/wallpapers/<YYYYMMDD>.jpg` URLs, newest first (at most 12). */
export const WallpaperList = Type.Object({ urls: Type.Array(Type.String()), count: Type.Integer() });
export const WallpaperSync = Type.Object({ urls: Type.Array(Type.String()), count: Type.Integer(), downloaded: Type.Integer() });
export const DailyWallpaper = Type.Object({ url: Type.Union([Type.String(), Type.Null()]) });
export const WallpaperFileParams = Type.Object({ file: Type.String({ maxLength: 64 }) });

export type WallpaperList = Static<typeof WallpaperList>;
export type WallpaperSync = Static<typeof WallpaperSync>;
export type DailyWallpaper = Static<typeof DailyWallpaper>;
