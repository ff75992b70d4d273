/** The render suite's render worker: the jank scene, named by the worker's name ("<channel>|<bodies>|<tick rate>"). */
import { exposeRenderer } from 'steadyframe/render-worker';
import { jankScene } from './shared/jank-scene.ts';

const [name, bodies, tickRate] = self.name.split('|');
exposeRenderer(jankScene(name!, Number(bodies), Number(tickRate)));
