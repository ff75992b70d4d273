/** The parts of MainLoop.js (npm `mainloop.js`, a UMD singleton without type declarations) the motion suite uses. */
declare module 'mainloop.js' {
  interface MainLoop {
    setSimulationTimestep(ms: number): MainLoop;
    getSimulationTimestep(): number;
    setBegin(begin: (timestamp: number, frameDelta: number) => void): MainLoop;
    setUpdate(update: (delta: number) => void): MainLoop;
    setDraw(draw: (interpolationPercentage: number) => void): MainLoop;
    setEnd(end: (fps: number, panic: boolean) => void): MainLoop;
    start(): MainLoop;
    stop(): MainLoop;
    isRunning(): boolean;
    resetFrameDelta(): number;
  }
  const mainLoop: MainLoop;
  export default mainLoop;
}
