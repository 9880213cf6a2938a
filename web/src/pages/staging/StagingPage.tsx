/**
 * The staging area: `/staging` lists the directories a push can start from, `/staging/browse?path=`
 * shows one folder of them. Both views keep their place in the URL, so a reload or a pasted link
 * returns to the same folder.
 */
import { Route, Routes } from 'react-router';
import { StagingBrowser } from './StagingBrowser';
import { StagingDirs } from './StagingDirs';

export default function StagingPage() {
  return (
    <Routes>
      <Route index element={<StagingDirs />} />
      <Route path="browse" element={<StagingBrowser />} />
      <Route path="*" element={<StagingDirs />} />
    </Routes>
  );
}
