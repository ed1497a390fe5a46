import KioskSession   // LongTask

let task = LongTask(hud: session, loop: loop, options: .init())   // a Cancel button, a spinner
task.onCancel = { worker.stop() }            // then task.finished(.cancelled) once it has stopped
task.onDone = { end in loop.stop() }         // after the end notice
worker.onProgress = { task.setProgress($0) } // the spinner becomes a bar; never backwards
worker.onFinish = { ok in task.finished(ok ? .success : .failed("Failed")) }
