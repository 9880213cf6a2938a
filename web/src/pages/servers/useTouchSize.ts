/** Control size for this page: `md` (40 px and more) on phones so every touch target is large enough. */
import { useMediaQuery } from '@mantine/hooks';

export function useTouchSize(): 'sm' | 'md' {
  return useMediaQuery('(max-width: 48em)') ? 'md' : 'sm';
}
